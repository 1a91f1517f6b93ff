import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Counts the words of a file and prints the five most frequent. */
public class WordFreq {
    public static void main(String[] args) throws Exception {
        Map<String, Integer> freq = new HashMap<>();
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            for (String w : line.toLowerCase().split("[^a-z]+")) {
                if (!w.isEmpty()) {
                    freq.merge(w, 1, Integer::sum);
                }
            }
        }
        List<String> top = freq.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(5).map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.toList());
        System.out.println(freq.size() + " words; top: " + top);
    }
}
