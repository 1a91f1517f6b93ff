package matrix;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

// A ZooKeeper client (connect string in args[0]): connects (30 s at most),
// creates /matrix and 10 children holding probeSq of their number, sets
// and reads some back, lists the children, deletes them all and closes,
// printing what it read and the sum of the children's data (285).
public class ZkClient {
    public static int probeSq(int x) { return x * x; }

    public static void main(String[] args) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(args[0], 30000, e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) connected.countDown();
        });
        try {
            if (!connected.await(30, TimeUnit.SECONDS)) {
                System.out.println("not connected in 30 s");
                System.exit(1);
            }
            System.out.println("created " + zk.create("/matrix", bytes("root"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT));
            for (int i = 0; i < 10; i++) {
                zk.create("/matrix/n" + i, bytes(String.valueOf(probeSq(i))), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            }
            Stat st = zk.setData("/matrix", bytes("root, set"), 0);
            System.out.println("set /matrix: version " + st.getVersion() + ", " + st.getNumChildren() + " children");
            System.out.println("/matrix: " + string(zk.getData("/matrix", false, null)));
            List<String> children = zk.getChildren("/matrix", false);
            Collections.sort(children);
            long sum = 0;
            for (String c : children) {
                String d = string(zk.getData("/matrix/" + c, false, null));
                System.out.println(c + " " + d);
                sum += Long.parseLong(d);
            }
            System.out.println("sum " + sum + " of " + children.size());
            for (String c : children) zk.delete("/matrix/" + c, -1);
            zk.delete("/matrix", -1);
            System.out.println("deleted; /matrix exists: " + (zk.exists("/matrix", false) != null));
        } finally {
            zk.close();
        }
        System.out.println("closed");
    }

    static byte[] bytes(String s) { return s.getBytes(StandardCharsets.UTF_8); }

    static String string(byte[] b) { return new String(b, StandardCharsets.UTF_8); }
}
