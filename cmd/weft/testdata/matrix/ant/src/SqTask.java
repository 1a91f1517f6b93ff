import org.apache.tools.ant.Task;

// A task Ant compiles, defines and runs: probeSq is called 10 times.
public class SqTask extends Task {
    static int probeSq(int x) { return x * x; }

    @Override
    public void execute() {
        int s = 0;
        for (int i = 0; i < 10; i++) s += probeSq(i);
        log("ant task " + s);
    }
}
