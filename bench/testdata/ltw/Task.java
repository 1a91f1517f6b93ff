package bench;

/** What each generated class of the benchmark implements. */
public interface Task {
    int run(int x);
}
