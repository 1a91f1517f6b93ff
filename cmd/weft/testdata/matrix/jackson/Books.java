// Jackson data binding in a small heap (matrix_tools_test.go runs it with
// -Xmx48m): 25,000 records written to JSON, read back as a tree and as
// objects, their pages summed; probeSq is called 10 times.
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;

public class Books {
    public static class Book {
        public String title;
        public List<String> authors = new ArrayList<>();
        public int pages;
    }

    static int probeSq(int i) {
        return i * i;
    }

    public static void main(String[] args) throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        List<Book> books = new ArrayList<>();
        for (int i = 0; i < 25_000; i++) {
            Book b = new Book();
            b.title = "Book number " + i;
            b.authors.add("Author " + (i % 97));
            b.authors.add("Editor " + (i % 13));
            b.pages = 100 + i % 400;
            books.add(b);
        }
        byte[] json = mapper.writeValueAsBytes(books);
        JsonNode tree = mapper.readTree(json);
        long pages = 0;
        for (JsonNode n : tree) {
            pages += n.get("pages").asLong();
        }
        Book[] back = mapper.readValue(json, Book[].class);
        int sq = 0;
        for (int i = 0; i < 10; i++) {
            sq += probeSq(i);
        }
        System.out.println(back.length + " books, " + pages + " pages, " + json.length + " bytes, " + sq);
    }
}
