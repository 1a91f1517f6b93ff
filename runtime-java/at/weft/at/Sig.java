package weft.at;

import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.HashSet;
import java.util.Set;
import org.aspectj.lang.Signature;
import org.aspectj.lang.reflect.CatchClauseSignature;
import org.aspectj.lang.reflect.CodeSignature;
import org.aspectj.lang.reflect.ConstructorSignature;
import org.aspectj.lang.reflect.FieldSignature;
import org.aspectj.lang.reflect.InitializerSignature;
import org.aspectj.lang.reflect.MethodSignature;

/**
 * The org.aspectj.lang view of a weft signature: the strings and names are
 * weft.rt.Signature's (AspectJ's forms); the Class and reflection values
 * are resolved by name at first use (Part.type), and are null when no
 * loader sees the type or member. A resolved value is kept (in volatile
 * fields: reflection objects are not safe to publish racily); a failure is
 * tried again, as a later join point may give a loader that sees it.
 *
 * <p>The subclass, so the interfaces advice may cast to, follows the join
 * point's kind as in AspectJ (Sig.of).
 */
class Sig implements Signature {
    private static final Class<?>[] NO_CLASSES = new Class<?>[0];

    final Part part;
    final weft.rt.Signature sig;
    private volatile Class<?> declaringType;

    Sig(Part part, weft.rt.Signature sig) {
        this.part = part;
        this.sig = sig;
    }

    /** The view of sig for part's kind. */
    static Sig of(Part part, weft.rt.Signature sig) {
        switch (part.getKind()) {
            case "method-call":
            case "method-execution":
                return new Methods(part, sig);
            case "constructor-call":
            case "constructor-execution":
            case "initialization":
            case "preinitialization":
                return new Constructors(part, sig);
            case "field-get":
            case "field-set":
                return new Fields(part, sig);
            case "exception-handler":
                return new Catch(part, sig);
            case "staticinitialization":
                return new Initializer(part, sig);
        }
        return new Sig(part, sig);
    }

    @Override
    public String toString() { return sig.toString(); }

    @Override
    public String toShortString() { return sig.toShortString(); }

    @Override
    public String toLongString() { return sig.toLongString(); }

    @Override
    public String getName() { return sig.getName(); }

    @Override
    public int getModifiers() { return sig.getModifiers(); }

    @Override
    public Class<?> getDeclaringType() {
        Class<?> c = declaringType;
        if (c == null) {
            c = part.type(sig.getDeclaringTypeName());
            declaringType = c;
        }
        return c;
    }

    @Override
    public String getDeclaringTypeName() { return sig.getDeclaringTypeName(); }

    /** The classes named names, or null if one is not found. */
    Class<?>[] types(String[] names) {
        if (names == null) {
            return NO_CLASSES;
        }
        Class<?>[] cs = new Class<?>[names.length];
        for (int i = 0; i < names.length; i++) {
            if ((cs[i] = part.type(names[i])) == null) {
                return null;
            }
        }
        return cs;
    }

    /**
     * A method or constructor's signature. getParameterTypes gives null
     * when a parameter's type is not found; getParameterNames the names
     * only javac -parameters records, else null; getExceptionTypes the
     * member's declared exceptions, empty if it does not resolve.
     */
    abstract static class Code extends Sig implements CodeSignature {
        private volatile Class<?>[] parameterTypes;

        Code(Part part, weft.rt.Signature sig) {
            super(part, sig);
        }

        /** The member, by reflection; null if it does not resolve. */
        abstract Executable member();

        @Override
        public Class<?>[] getParameterTypes() {
            Class<?>[] ps = parameterTypes;
            if (ps == null) {
                ps = types(sig.getParameterTypeNames());
                if (ps == null) {
                    return null;
                }
                parameterTypes = ps;
            }
            return ps.clone();
        }

        @Override
        public String[] getParameterNames() {
            Executable m = member();
            if (m == null) {
                return null;
            }
            Parameter[] ps = m.getParameters();
            String[] names = new String[ps.length];
            for (int i = 0; i < ps.length; i++) {
                if (!ps[i].isNamePresent()) {
                    return null;
                }
                names[i] = ps[i].getName();
            }
            return names;
        }

        @Override
        public Class<?>[] getExceptionTypes() {
            Executable m = member();
            return m == null ? NO_CLASSES : m.getExceptionTypes();
        }
    }

    /** Method call and execution. */
    static final class Methods extends Code implements MethodSignature {
        private volatile Method method;

        Methods(Part part, weft.rt.Signature sig) {
            super(part, sig);
        }

        @Override
        Executable member() { return getMethod(); }

        @Override
        public Class<?> getReturnType() { return part.type(sig.getReturnTypeName()); }

        /**
         * The declaring type's method, else the first its superclasses and
         * then interfaces declare (a call's declaring type may inherit the
         * method), as AspectJ looks it up.
         */
        @Override
        public Method getMethod() {
            Method m = method;
            if (m == null) {
                Class<?> d = getDeclaringType();
                Class<?>[] ps = getParameterTypes();
                if (d == null || ps == null) {
                    return null;
                }
                m = search(d, sig.getName(), ps, new HashSet<>());
                method = m;
            }
            return m;
        }

        private static Method search(Class<?> c, String name, Class<?>[] ps, Set<Class<?>> seen) {
            if (c == null || !seen.add(c)) {
                return null;
            }
            try {
                return c.getDeclaredMethod(name, ps);
            } catch (NoSuchMethodException | LinkageError | SecurityException e) {
                // look in the supertypes
            }
            Method m = search(c.getSuperclass(), name, ps, seen);
            for (Class<?> i : c.getInterfaces()) {
                if (m == null) {
                    m = search(i, name, ps, seen);
                }
            }
            return m;
        }
    }

    /**
     * Constructor call and execution, initialization and preinitialization
     * (array construction too, whose getConstructor is null).
     */
    static final class Constructors extends Code implements ConstructorSignature {
        private volatile Constructor<?> constructor;

        Constructors(Part part, weft.rt.Signature sig) {
            super(part, sig);
        }

        @Override
        Executable member() { return getConstructor(); }

        @Override
        public Constructor<?> getConstructor() {
            Constructor<?> c = constructor;
            if (c == null) {
                Class<?> d = getDeclaringType();
                Class<?>[] ps = getParameterTypes();
                if (d == null || ps == null || d.isArray()) {
                    return null;
                }
                try {
                    c = d.getDeclaredConstructor(ps);
                } catch (NoSuchMethodException | LinkageError | SecurityException e) {
                    return null;
                }
                constructor = c;
            }
            return c;
        }
    }

    /** Static initialization: no parameters, no Constructor stands for it. */
    static final class Initializer extends Code implements InitializerSignature {
        Initializer(Part part, weft.rt.Signature sig) {
            super(part, sig);
        }

        @Override
        Executable member() { return null; }

        /** Null: no Constructor object stands for a static initializer. */
        @Override
        public Constructor<?> getInitializer() { return null; }
    }

    /** Field get and set. */
    static final class Fields extends Sig implements FieldSignature {
        private volatile Field field;

        Fields(Part part, weft.rt.Signature sig) {
            super(part, sig);
        }

        @Override
        public Class<?> getFieldType() { return part.type(sig.getReturnTypeName()); }

        /** The declaring type's field of that name, null if it has none. */
        @Override
        public Field getField() {
            Field f = field;
            if (f == null) {
                Class<?> d = getDeclaringType();
                if (d == null) {
                    return null;
                }
                try {
                    f = d.getDeclaredField(sig.getName());
                } catch (NoSuchFieldException | LinkageError | SecurityException e) {
                    return null;
                }
                field = f;
            }
            return f;
        }
    }

    /** An exception handler: the caught type; its variable's name is unknown. */
    static final class Catch extends Sig implements CatchClauseSignature {
        Catch(Part part, weft.rt.Signature sig) {
            super(part, sig);
        }

        /** "catch", AspectJ's name (weft's signature names it "<catch>"). */
        @Override
        public String getName() { return "catch"; }

        @Override
        public Class<?> getParameterType() {
            String[] ps = sig.getParameterTypeNames();
            return ps == null || ps.length != 1 ? null : part.type(ps[0]);
        }

        /** Null: weft does not read the handler's variable name. */
        @Override
        public String getParameterName() { return null; }
    }
}
