package matrix;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

// A servlet of the Tomcat webapp: each GET calls probeSq 10 times.
public class SqServlet extends HttpServlet {
    static int probeSq(int x) { return x * x; }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        int s = 0;
        for (int i = 0; i < 10; i++) s += probeSq(i);
        resp.setContentType("text/plain");
        resp.getWriter().print("tomcat servlet " + s + " " + req.getParameter("n") + "\n");
    }
}
