import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;

// Sql runs a fixed SQL workload through JDBC on the database at args[0]
// (bench/suite.sh: H2 and Derby, embedded, in memory): two tables of
// args[1] orders and a tenth as many customers, inserted in batches,
// then joins, groupings, an update and a delete; it prints every query's
// result, the same on every run.
public class Sql {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[1]);
        try (Connection c = DriverManager.getConnection(args[0])) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE customer (id INT PRIMARY KEY, name VARCHAR(40), region INT)");
                s.execute("CREATE TABLE orders (id INT PRIMARY KEY, customer INT, amount INT, item VARCHAR(40))");
                s.execute("CREATE INDEX orders_customer ON orders (customer)");
            }
            int customers = Math.max(1, n / 10);
            try (PreparedStatement p = c.prepareStatement("INSERT INTO customer VALUES (?, ?, ?)")) {
                for (int i = 0; i < customers; i++) {
                    p.setInt(1, i);
                    p.setString(2, "customer " + i);
                    p.setInt(3, i % 7);
                    p.addBatch();
                }
                p.executeBatch();
            }
            long seed = 42;
            try (PreparedStatement p = c.prepareStatement("INSERT INTO orders VALUES (?, ?, ?, ?)")) {
                for (int i = 0; i < n; i++) {
                    seed = seed * 6364136223846793005L + 1442695040888963407L;
                    p.setInt(1, i);
                    p.setInt(2, (int) ((seed >>> 33) % customers));
                    p.setInt(3, (int) ((seed >>> 20) % 1000));
                    p.setString(4, "item " + (i % 97));
                    p.addBatch();
                    if (i % 1000 == 999) p.executeBatch();
                }
                p.executeBatch();
            }
            c.commit();
            query(c, "SELECT cu.region, COUNT(*), SUM(o.amount) FROM orders o JOIN customer cu ON o.customer = cu.id GROUP BY cu.region ORDER BY cu.region");
            query(c, "SELECT item, MAX(amount), MIN(amount) FROM orders GROUP BY item ORDER BY item");
            for (int k = 0; k < 50; k++) {
                query(c, "SELECT COUNT(*), SUM(amount) FROM orders WHERE customer = " + (k * 7 % customers));
            }
            try (Statement s = c.createStatement()) {
                System.out.println("updated " + s.executeUpdate("UPDATE orders SET amount = amount + 1 WHERE amount < 100"));
                System.out.println("deleted " + s.executeUpdate("DELETE FROM orders WHERE amount > 900"));
            }
            query(c, "SELECT COUNT(*), SUM(amount) FROM orders");
            c.commit();
        }
    }

    static void query(Connection c, String sql) throws Exception {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            int cols = r.getMetaData().getColumnCount();
            StringBuilder b = new StringBuilder();
            while (r.next()) {
                for (int i = 1; i <= cols; i++) b.append(i > 1 ? " " : "").append(r.getString(i));
                b.append('\n');
            }
            System.out.print(b);
        }
    }
}
