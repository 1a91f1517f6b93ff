package weft.rt;

/**
 * Conversions of around advice's boxed values (its Object result, the
 * arguments given to proceed) to a join point's primitive types, as
 * AspectJ's org.aspectj.runtime.internal.Conversions makes them: null is 0
 * (false, '\0'), any Number converts to any numeric type, anything else
 * throws ClassCastException.
 */
public final class Conversions {
    private Conversions() {}

    private static ClassCastException cannot(Object o, String type) {
        return new ClassCastException(o.getClass().getName() + " can not be converted to " + type);
    }

    public static int intValue(Object o) {
        if (o == null) {
            return 0;
        }
        if (o instanceof Number) {
            return ((Number) o).intValue();
        }
        throw cannot(o, "int");
    }

    public static long longValue(Object o) {
        if (o == null) {
            return 0;
        }
        if (o instanceof Number) {
            return ((Number) o).longValue();
        }
        throw cannot(o, "long");
    }

    public static float floatValue(Object o) {
        if (o == null) {
            return 0;
        }
        if (o instanceof Number) {
            return ((Number) o).floatValue();
        }
        throw cannot(o, "float");
    }

    public static double doubleValue(Object o) {
        if (o == null) {
            return 0;
        }
        if (o instanceof Number) {
            return ((Number) o).doubleValue();
        }
        throw cannot(o, "double");
    }

    public static byte byteValue(Object o) {
        if (o == null) {
            return 0;
        }
        if (o instanceof Number) {
            return ((Number) o).byteValue();
        }
        throw cannot(o, "byte");
    }

    public static short shortValue(Object o) {
        if (o == null) {
            return 0;
        }
        if (o instanceof Number) {
            return ((Number) o).shortValue();
        }
        throw cannot(o, "short");
    }

    public static char charValue(Object o) {
        if (o == null) {
            return '\0';
        }
        if (o instanceof Character) {
            return ((Character) o).charValue();
        }
        throw cannot(o, "char");
    }

    public static boolean booleanValue(Object o) {
        if (o == null) {
            return false;
        }
        if (o instanceof Boolean) {
            return ((Boolean) o).booleanValue();
        }
        throw cannot(o, "boolean");
    }
}
