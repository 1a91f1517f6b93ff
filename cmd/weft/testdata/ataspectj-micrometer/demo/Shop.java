package demo;

import io.micrometer.core.annotation.Counted;
import io.micrometer.core.annotation.Timed;
import java.util.concurrent.CompletableFuture;

// The methods Micrometer's TimedAspect and CountedAspect advise: each
// annotation, by default and with a name and extra tags, on instance and
// static methods, returning, throwing, and returning a CompletionStage.
public class Shop {
    private int stock = 10;

    @Timed
    public int buy(int n) {
        stock -= n;
        return stock;
    }

    @Timed(value = "shop.pay", extraTags = {"currency", "eur"})
    public void pay(String card) {
        if (card.isEmpty()) {
            throw new IllegalArgumentException("no card");
        }
    }

    @Timed("shop.price")
    public static int price(int n) {
        return 3 * n;
    }

    @Timed(value = "shop.audit", longTask = true)
    public void audit() {
    }

    @Timed("shop.later")
    public CompletableFuture<String> later() {
        return CompletableFuture.completedFuture("done");
    }

    @Counted
    public void visit() {
    }

    @Counted(value = "shop.refund", extraTags = {"reason", "damaged"})
    public void refund(int n) {
        if (n < 0) {
            throw new IllegalStateException("negative refund");
        }
    }

    @Counted(value = "shop.ping", recordFailuresOnly = true)
    public void ping(boolean fail) {
        if (fail) {
            throw new UnsupportedOperationException("ping");
        }
    }

    @Timed("shop.checkout")
    @Counted("shop.checkouts")
    public String checkout() {
        return "ok " + stock;
    }
}
