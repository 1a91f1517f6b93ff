<%@ page contentType="text/plain; charset=UTF-8" session="false" %><%!
    static int probeSq(int x) { return x * x; }
%><% int s = 0; for (int i = 0; i < 10; i++) s += probeSq(i); %>jsp <%= s %> <%= request.getParameter("n") %>
