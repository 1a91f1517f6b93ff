package demo;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

// Calls Shop's annotated methods a known number of times, then prints every
// meter of the global registry (where the aspects' no-argument constructors
// register), sorted: its type, name, tags and count, never a time.
public class Main {
    public static void main(String[] args) throws Exception {
        Metrics.globalRegistry.add(new SimpleMeterRegistry());
        Shop shop = new Shop();
        for (int i = 0; i < 3; i++) {
            shop.buy(1);
        }
        shop.pay("4111");
        shop.pay("4222");
        try {
            shop.pay("");
        } catch (IllegalArgumentException e) {
            System.out.println("pay: " + e.getMessage());
        }
        System.out.println("price " + Shop.price(4) + " " + Shop.price(5));
        shop.audit();
        System.out.println("later " + shop.later().get());
        for (int i = 0; i < 4; i++) {
            shop.visit();
        }
        shop.refund(1);
        try {
            shop.refund(-1);
        } catch (IllegalStateException e) {
            System.out.println("refund: " + e.getMessage());
        }
        shop.ping(false);
        shop.ping(false);
        try {
            shop.ping(true);
        } catch (UnsupportedOperationException e) {
            System.out.println("ping: " + e.getMessage());
        }
        System.out.println(shop.checkout());
        System.out.println("tick " + new outside.Clock().tick());

        List<String> lines = new ArrayList<>();
        for (Meter m : Metrics.globalRegistry.getMeters()) {
            StringBuilder b = new StringBuilder();
            b.append(m.getId().getName()).append('{');
            String sep = "";
            for (Tag t : m.getId().getTagsAsIterable()) {
                b.append(sep).append(t.getKey()).append('=').append(t.getValue());
                sep = ",";
            }
            b.append("} ");
            if (m instanceof Timer) {
                b.append("timer count=").append(((Timer) m).count());
            } else if (m instanceof Counter) {
                b.append("counter count=").append((long) ((Counter) m).count());
            } else if (m instanceof LongTaskTimer) {
                b.append("long-task-timer active=").append(((LongTaskTimer) m).activeTasks());
            } else {
                b.append(m.getId().getType());
            }
            lines.add(b.toString());
        }
        Collections.sort(lines);
        System.out.println(lines.size() + " meters:");
        for (String l : lines) {
            System.out.println(l);
        }
    }
}
