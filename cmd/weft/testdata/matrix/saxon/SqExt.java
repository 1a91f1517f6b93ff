import net.sf.saxon.Configuration;
import net.sf.saxon.expr.XPathContext;
import net.sf.saxon.lib.ExtensionFunctionCall;
import net.sf.saxon.lib.ExtensionFunctionDefinition;
import net.sf.saxon.lib.Initializer;
import net.sf.saxon.om.Sequence;
import net.sf.saxon.om.StructuredQName;
import net.sf.saxon.trans.XPathException;
import net.sf.saxon.value.Int64Value;
import net.sf.saxon.value.IntegerValue;
import net.sf.saxon.value.SequenceType;

// SqExt registers sq:probeSq, a function the stylesheet calls (Saxon-HE
// has no reflexive extension functions; -init:SqExt registers this
// integrated one): the program matrix's probe (matrix_documents_test.go).
public class SqExt implements Initializer {
    static int probeSq(int i) {
        return i * i;
    }

    public void initialize(Configuration config) {
        config.registerExtensionFunction(new ExtensionFunctionDefinition() {
            public StructuredQName getFunctionQName() {
                return new StructuredQName("sq", "urn:weft:sq", "probeSq");
            }

            public SequenceType[] getArgumentTypes() {
                return new SequenceType[] {SequenceType.SINGLE_INTEGER};
            }

            public SequenceType getResultType(SequenceType[] args) {
                return SequenceType.SINGLE_INTEGER;
            }

            public ExtensionFunctionCall makeCallExpression() {
                return new ExtensionFunctionCall() {
                    public Sequence call(XPathContext context, Sequence[] args) throws XPathException {
                        int i = (int) ((IntegerValue) args[0].head()).longValue();
                        return Int64Value.makeIntegerValue(probeSq(i));
                    }
                };
            }
        });
    }
}
