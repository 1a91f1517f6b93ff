package app;

public class Point {
    final int x, y;

    public Point(int x, int y) {
        this.x = x;
        this.y = y;
    }

    public String toString() { return "(" + x + "," + y + ")"; }
}
