package demo;
public class Sq {
    public static int probeSq(int i) { return i * i; }
}
