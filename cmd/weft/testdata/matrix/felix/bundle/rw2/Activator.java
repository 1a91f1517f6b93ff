// A bundle's activator: calls probeSq 10 times and prints the sum, 285,
// then the sum of the library bundle's class, whose package it imports.
package rw2;

import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

public class Activator implements BundleActivator {
    static int probeSq(int i) { return i * i; }
    public void start(BundleContext ctx) {
        int s = 0;
        for (int i = 0; i < 10; i++) s += probeSq(i);
        System.out.println("bundle " + ctx.getBundle().getSymbolicName() + " " + s + " " + rw2lib.Squares.sum(10));
    }
    public void stop(BundleContext ctx) {}
}
