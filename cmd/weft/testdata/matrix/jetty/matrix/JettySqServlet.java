package matrix;

import java.io.IOException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

// The embedded Jetty's servlet: each GET calls probeSq 10 times.
public class JettySqServlet extends HttpServlet {
    static int probeSq(int x) { return x * x; }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        int s = 0;
        for (int i = 0; i < 10; i++) s += probeSq(i);
        resp.setContentType("text/plain");
        resp.getWriter().print("jetty servlet " + s + " " + req.getParameter("n") + "\n");
    }
}
