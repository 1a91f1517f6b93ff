package matrix;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;

// A JDBC client of HSQLDB's server (URL in args[0]): declares the Java
// function probeSq, makes a table of 10 rows, queries it through the
// function once (10 calls in the server) and runs a few plain queries,
// printing the results.
public class HsqlClient {
    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection(args[0], "SA", "")) {
            Statement s = c.createStatement();
            s.execute("CREATE FUNCTION probeSq(i INT) RETURNS INT LANGUAGE JAVA DETERMINISTIC NO SQL"
                + " EXTERNAL NAME 'CLASSPATH:matrix.HsqlFns.probeSq'");
            s.execute("CREATE TABLE T(X INT PRIMARY KEY, NAME VARCHAR(20), SQ INT)");
            PreparedStatement p = c.prepareStatement("INSERT INTO T(X, NAME) VALUES (?, ?)");
            for (int i = 0; i < 10; i++) {
                p.setInt(1, i);
                p.setString(2, "row " + i);
                p.executeUpdate();
            }
            // The function's 10 calls: the rows' squares, stored.
            System.out.println("updated " + s.executeUpdate("UPDATE T SET SQ = probeSq(X)"));
            try (ResultSet r = s.executeQuery("SELECT X, NAME, SQ FROM T ORDER BY X")) {
                while (r.next()) System.out.println(r.getInt(1) + " " + r.getString(2) + " " + r.getInt(3));
            }
            try (ResultSet r = s.executeQuery("SELECT SUM(SQ), COUNT(*), MAX(NAME) FROM T")) {
                r.next();
                System.out.println("sum " + r.getLong(1) + " of " + r.getInt(2) + ", last " + r.getString(3));
            }
            try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM T WHERE MOD(SQ, 2) = 1")) {
                r.next();
                System.out.println("odd " + r.getInt(1));
            }
        }
    }
}
