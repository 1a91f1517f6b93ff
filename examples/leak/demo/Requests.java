import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Serves requests and caches each one's summary: a cache that is never
 * evicted, the leak weft leak finds. With the argument "fixed", the cache
 * keeps the last 100 summaries only, and nothing grows.
 */
public class Requests {
    static Map<Integer, String> cache;

    static String handle(int id) {
        StringBuilder page = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            page.append("<p>item ").append(id * 20 + i).append("</p>");
        }
        byte[] body = page.toString().getBytes();
        String summary = "request " + id + ": " + body.length + " bytes";
        cache.put(id, summary);
        return summary;
    }

    public static void main(String[] args) {
        boolean fixed = args.length > 0 && args[0].equals("fixed");
        cache = fixed ? new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Integer, String> e) {
                return size() > 100;
            }
        } : new HashMap<>();
        long bytes = 0;
        for (int id = 0; id < 50_000; id++) {
            bytes += handle(id).length();
        }
        System.out.println(cache.size() + " cached, " + bytes + " bytes of summaries");
    }
}
