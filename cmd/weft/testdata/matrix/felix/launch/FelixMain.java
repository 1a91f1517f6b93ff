// Starts Felix (storage in args[0]), installs and starts each bundle named
// after it, stops the framework and says so (matrix_felix_test.go).
import java.io.File;
import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;
import org.osgi.framework.Bundle;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;

public class FelixMain {
    public static void main(String[] args) throws Exception {
        Map<String, String> cfg = new HashMap<>();
        cfg.put("org.osgi.framework.storage", args[0]);
        cfg.put("org.osgi.framework.storage.clean", "onFirstInit");
        cfg.put("felix.service.urlhandlers", "false");
        FrameworkFactory f = ServiceLoader.load(FrameworkFactory.class).iterator().next();
        Framework fw = f.newFramework(cfg);
        fw.start();
        for (int i = 1; i < args.length; i++) {
            Bundle b = fw.getBundleContext().installBundle(new File(args[i]).toURI().toString());
            b.start();
        }
        fw.stop();
        fw.waitForStop(60000);
        System.out.println("framework stopped");
    }
}
