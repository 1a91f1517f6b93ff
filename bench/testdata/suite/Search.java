import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ByteBuffersDirectory;

// Search indexes args[0] generated documents in memory with Lucene's
// StandardAnalyzer (one merge thread: the same segments every run), then
// runs term, phrase, boolean, wildcard and field queries through the
// classic QueryParser and prints each query's hit count and top ids
// (bench/suite.sh).
public class Search {
    static final String[] WORDS = {
        "apple", "river", "stone", "cloud", "green", "quick", "brown", "fox", "lazy", "dog",
        "north", "south", "winter", "summer", "paper", "glass", "light", "shadow", "engine", "garden",
        "silver", "market", "bridge", "forest", "signal", "letter", "window", "castle", "meadow", "harbor",
    };

    public static void main(String[] args) throws Exception {
        int docs = Integer.parseInt(args[0]);
        ByteBuffersDirectory dir = new ByteBuffersDirectory();
        IndexWriterConfig cfg = new IndexWriterConfig(new StandardAnalyzer());
        cfg.setMergeScheduler(new SerialMergeScheduler());
        long seed = 42;
        try (IndexWriter w = new IndexWriter(dir, cfg)) {
            for (int d = 0; d < docs; d++) {
                StringBuilder body = new StringBuilder();
                int n = 20 + d % 37;
                for (int k = 0; k < n; k++) {
                    seed = seed * 6364136223846793005L + 1442695040888963407L;
                    body.append(k == 0 ? "" : " ").append(WORDS[(int) ((seed >>> 33) % WORDS.length)]);
                }
                Document doc = new Document();
                doc.add(new StringField("id", "doc" + d, Field.Store.YES));
                doc.add(new TextField("body", body.toString(), Field.Store.NO));
                doc.add(new TextField("kind", d % 3 == 0 ? "report" : "note", Field.Store.NO));
                w.addDocument(doc);
            }
        }
        String[] queries = {"fox", "\"quick brown\"", "river AND stone", "winter OR summer -glass", "gard*",
            "kind:report AND light", "castle NOT meadow", "\"silver bridge\"~3", "harbor AND signal AND letter"};
        try (DirectoryReader r = DirectoryReader.open(dir)) {
            IndexSearcher s = new IndexSearcher(r);
            QueryParser p = new QueryParser("body", new StandardAnalyzer());
            for (int round = 0; round < 20; round++) {
                for (String q : queries) {
                    TopDocs top = s.search(p.parse(q), 5);
                    if (round > 0) continue;
                    StringBuilder b = new StringBuilder(q).append(": ").append(top.totalHits.value);
                    for (ScoreDoc sd : top.scoreDocs) b.append(' ').append(s.doc(sd.doc).get("id"));
                    System.out.println(b);
                }
            }
        }
    }
}
