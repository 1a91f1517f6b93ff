package matrix;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;

// A JDBC client of H2's TCP server (URL in args[0]): makes a table of 10
// rows and queries it through the server's Java function PROBE_SQ twice
// (10 calls each), printing the results.
public class H2Client {
    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection(args[0], "sa", "")) {
            Statement s = c.createStatement();
            s.execute("CREATE ALIAS PROBE_SQ FOR 'matrix.H2Fns.probeSq'");
            s.execute("CREATE TABLE T(X INT PRIMARY KEY, NAME VARCHAR(20))");
            PreparedStatement p = c.prepareStatement("INSERT INTO T VALUES (?, ?)");
            for (int i = 0; i < 10; i++) {
                p.setInt(1, i);
                p.setString(2, "row " + i);
                p.executeUpdate();
            }
            try (ResultSet r = s.executeQuery("SELECT X, NAME, PROBE_SQ(X) FROM T ORDER BY X")) {
                while (r.next()) System.out.println(r.getInt(1) + " " + r.getString(2) + " " + r.getInt(3));
            }
            try (ResultSet r = s.executeQuery("SELECT SUM(PROBE_SQ(X)), COUNT(*) FROM T")) {
                r.next();
                System.out.println("sum " + r.getLong(1) + " of " + r.getInt(2));
            }
        }
    }
}
