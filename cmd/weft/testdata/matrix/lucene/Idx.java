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

// Idx indexes 200 generated documents in memory with Lucene's
// StandardAnalyzer, then runs term, phrase and boolean queries through the
// classic QueryParser and prints each query's hit count and its top
// documents' ids (the program matrix, matrix_documents_test.go). Its
// probeSq, called 10 times, is the matrix's probe; the squares sum to 285.
public class Idx {
    static final String[] WORDS = {
        "apple", "river", "stone", "cloud", "green", "quick", "brown", "fox", "lazy", "dog",
        "north", "south", "winter", "summer", "paper", "glass", "light", "shadow", "engine", "garden",
    };

    static int probeSq(int i) {
        return i * i;
    }

    public static void main(String[] args) throws Exception {
        int squares = 0;
        for (int i = 0; i < 10; i++) {
            squares += probeSq(i);
        }
        System.out.println("squares: " + squares);

        ByteBuffersDirectory dir = new ByteBuffersDirectory();
        IndexWriterConfig cfg = new IndexWriterConfig(new StandardAnalyzer());
        cfg.setMergeScheduler(new SerialMergeScheduler());
        long seed = 42;
        try (IndexWriter w = new IndexWriter(dir, cfg)) {
            for (int d = 0; d < 200; d++) {
                StringBuilder body = new StringBuilder();
                int n = 8 + d % 13;
                for (int k = 0; k < n; k++) {
                    seed = (seed * 6364136223846793005L + 1442695040888963407L);
                    body.append(k == 0 ? "" : " ").append(WORDS[(int) ((seed >>> 33) % WORDS.length)]);
                }
                if (d % 17 == 0) {
                    body.append(" The quick brown fox jumps over the lazy dog.");
                }
                Document doc = new Document();
                doc.add(new StringField("id", "doc" + d, Field.Store.YES));
                doc.add(new TextField("body", body.toString(), Field.Store.NO));
                doc.add(new TextField("kind", d % 3 == 0 ? "report" : "note", Field.Store.NO));
                w.addDocument(doc);
            }
        }
        try (DirectoryReader r = DirectoryReader.open(dir)) {
            System.out.println("documents: " + r.numDocs());
            IndexSearcher s = new IndexSearcher(r);
            QueryParser qp = new QueryParser("body", new StandardAnalyzer());
            String[] queries = {
                "river",
                "\"quick brown fox\"",
                "\"lazy dog\"",
                "winter AND garden",
                "apple OR glass",
                "+stone -cloud kind:report",
                "(north OR south) AND NOT engine",
                "shad*",
            };
            for (String q : queries) {
                TopDocs top = s.search(qp.parse(q), 5);
                StringBuilder ids = new StringBuilder();
                for (ScoreDoc sd : top.scoreDocs) {
                    ids.append(' ').append(s.doc(sd.doc).get("id"));
                }
                System.out.println(q + ": " + top.totalHits.value + " hits," + ids);
            }
        }
    }
}
