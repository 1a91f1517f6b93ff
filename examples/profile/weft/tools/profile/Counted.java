package weft.tools.profile;

/**
 * An execution's context that also counts the bytecodes its executions
 * ran (profile.bytecodes): 40 bytes, against a Node's 32, made only when
 * bytecodes are counted.
 */
class Counted extends Node {
    long bytecodes; // exclusive: instructions of this context's own code

    Counted(int id) {
        super(id);
    }
}
