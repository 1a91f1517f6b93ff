package matrix;

import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ServletContextHandler;

// Jetty 9 embedded, on 127.0.0.1 at the port given, serving JettySqServlet
// at /sq until the JVM is stopped.
public class JettyMain {
    public static void main(String[] args) throws Exception {
        Server server = new Server();
        ServerConnector c = new ServerConnector(server);
        c.setHost("127.0.0.1");
        c.setPort(Integer.parseInt(args[0]));
        server.addConnector(c);
        ServletContextHandler h = new ServletContextHandler();
        h.setContextPath("/");
        h.addServlet(JettySqServlet.class, "/sq");
        server.setHandler(h);
        server.setStopAtShutdown(true);
        server.start();
        server.join();
    }
}
