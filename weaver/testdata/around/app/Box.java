package app;

public class Box {
    int v;

    public Box(int v) { this.v = v; }

    public int get() { return v; }
}
