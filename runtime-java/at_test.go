package rtjava

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-aop/weft/internal/archive"
	"github.com/weft-aop/weft/internal/jvmtest"
)

// atAspectjrt is the AspectJ runtime TestAtAdapters runs with: Debian's
// aspectj's.
const atAspectjrt = "/usr/share/java/aspectjrt.jar"

// TestAtAdapters links @AspectJ advice methods of a javac-compiled aspect
// to call sites of the dispatchers' types, as weft's generated dispatchers
// do, and calls them with weft.rt's join point objects: the advice sees
// org.aspectj.lang views whose strings, kinds and signature types are
// AspectJ's (ajc 1.9.5's woven code prints the same for the same join
// points, but for the location of a part without a line table, weft's
// "unknown:-1"), Class values resolved by name (null for a missing type),
// one static part object per weft part, proceed's forms, AspectJ's
// conversion of around advice's null to a primitive's 0, and a warning,
// printed once, for advice that cannot be linked. aspectjrt and the
// runtime are on the boot class path, as under weft; every class is
// verified.
func TestAtAdapters(t *testing.T) {
	atJDK := jvmtest.JavaHome(t) // the tests' JDK 17: fails if there is none
	if _, err := os.Stat(atAspectjrt); err != nil {
		t.Fatalf("no AspectJ runtime at %s (%v): apt install aspectj", atAspectjrt, err)
	}
	cache := t.TempDir()
	at, err := BuildAt(atJDK, atAspectjrt, cache)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"weft/at/Link", "weft/at/AJ"} {
		if at[want] == nil {
			t.Fatalf("BuildAt made no %s", want)
		}
	}
	if again, err := BuildAt("/nonexistent-jdk", atAspectjrt, cache); err != nil || len(again) != len(at) {
		t.Fatalf("the second BuildAt did not come from the cache: %d classes, %v", len(again), err)
	}
	rt, err := Build(atJDK, cache)
	if err != nil {
		t.Fatal(err)
	}
	boot := t.TempDir()
	if err := archive.WriteClasses(boot, archive.Dir, rt); err != nil {
		t.Fatal(err)
	}
	if err := archive.WriteClasses(boot, archive.Dir, at); err != nil {
		t.Fatal(err)
	}
	bootPath := boot + string(os.PathListSeparator) + atAspectjrt

	src := t.TempDir()
	var files []string
	for name, text := range map[string]string{"demo/Account.java": atAccount, "demo/Trace.java": atTrace, "demo/Main.java": atMain} {
		p := filepath.Join(src, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	app := t.TempDir()
	javac := exec.Command(filepath.Join(atJDK, "bin", "javac"), jvmtest.ToolArgs(append([]string{"-g", "-d", app, "-cp", bootPath}, files...)...)...)
	if b, err := javac.CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, b)
	}
	var stdout, stderr strings.Builder
	java := exec.Command(filepath.Join(atJDK, "bin", "java"), jvmtest.QuickArgs("-Xbootclasspath/a:"+bootPath, "-Xverify:all", "-cp", app, "demo.Main")...)
	java.Stdout, java.Stderr = &stdout, &stderr
	if err := java.Run(); err != nil {
		t.Fatalf("java: %v\nstdout:\n%s\nstderr:\n%s", err, &stdout, &stderr)
	}
	if got := stdout.String(); got != atWantOut {
		t.Errorf("stdout:\n%s\nwant:\n%s", got, atWantOut)
	}
	if got := stderr.String(); got != atWantErr {
		t.Errorf("stderr:\n%s\nwant:\n%s", got, atWantErr)
	}
}

const atWantOut = `hasAspect false made 0
hasAspect true made 1
before call(int demo.Account.deposit(int)) | call(Account.deposit(..)) | call(public int demo.Account.deposit(int))
  this main target account 10 args [5] kind method-call same part true aspectOf true
  call(int demo.Account.deposit(int)) | call(Account.deposit(..)) | call(public int demo.Account.deposit(int))
  id 1 kind method-call at Main.java:12 within class demo.Main line 12
  sig MethodSignature deposit demo.Account class demo.Account | int demo.Account.deposit(int) | Account.deposit(..) | public int demo.Account.deposit(int)
  params [int] throws []
  returns int method public int demo.Account.deposit(int)
before call(Map.Entry demo.Account.find(String[], Map.Entry)) | call(Account.find(..)) | call(public static java.util.Map.Entry demo.Account.find(java.lang.String[], java.util.Map.Entry))
  this main target null args [[], k=1] kind method-call same part false aspectOf true
  call(Map.Entry demo.Account.find(String[], Map.Entry)) | call(Account.find(..)) | call(public static java.util.Map.Entry demo.Account.find(java.lang.String[], java.util.Map.Entry))
  id 2 kind method-call at Main.java:13 within class demo.Main line 13
  sig MethodSignature find demo.Account class demo.Account | Map.Entry demo.Account.find(String[], Map.Entry) | Account.find(..) | public static java.util.Map.Entry demo.Account.find(java.lang.String[], java.util.Map.Entry)
  params [class [Ljava.lang.String;, interface java.util.Map$Entry] throws [class java.io.IOException]
  returns interface java.util.Map$Entry method public static java.util.Map$Entry demo.Account.find(java.lang.String[],java.util.Map$Entry) throws java.io.IOException
before get(int demo.Account.balance) | get(Account.balance) | get(public int demo.Account.balance)
  this null target account 10 args [] kind field-get same part false aspectOf true
  get(int demo.Account.balance) | get(Account.balance) | get(public int demo.Account.balance)
  id 4 kind field-get at Main.java:14 within class demo.Main line 14
  sig FieldSignature balance demo.Account class demo.Account | int demo.Account.balance | Account.balance | public int demo.Account.balance
  field public int demo.Account.balance type int
before call(int[](int)) | call(int[](..)) | call(public int[](int))
  this null target null args [3] kind constructor-call same part false aspectOf true
  call(int[](int)) | call(int[](..)) | call(public int[](int))
  id 7 kind constructor-call at Main.java:16 within class demo.Main line 16
  sig ConstructorSignature <init> [I class [I | int[](int) | int[](..) | public int[](int)
  params [int] throws []
  constructor null
before call(void demo.Gone.m(Gone)) | call(Gone.m(..)) | call(public void demo.Gone.m(demo.Gone))
  this null target null args [null] kind method-call same part false aspectOf true
  call(void demo.Gone.m(Gone)) | call(Gone.m(..)) | call(public void demo.Gone.m(demo.Gone))
  id 8 kind method-call at Main.java:17 within class demo.Main line 17
  sig MethodSignature m demo.Gone null | void demo.Gone.m(Gone) | Gone.m(..) | public void demo.Gone.m(demo.Gone)
  params null throws []
  returns void method null
around call(int demo.Account.deposit(int)) proceed 11 16 1007 | proceed: the join point takes 1 arguments, 0 given
around returned 111 balance 16
null around returned 0
formal hello 42 call(int demo.Account.deposit(int)) same part true
enclosing handler(catch(IOException)) in execution(Main.main(..))
  handler(catch(IOException)) | handler(catch(IOException)) | handler(catch(java.io.IOException))
  id 5 kind exception-handler at Main.java:15 within class demo.Main line 15
  sig CatchClauseSignature catch demo.Main class demo.Main | catch(IOException) | catch(IOException) | catch(java.io.IOException)
  caught class java.io.IOException
  execution(void demo.Main.main(String[])) | execution(Main.main(..)) | execution(public static void demo.Main.main(java.lang.String[]))
  id 9 kind method-execution at Main.java:50 within class demo.Main line 50
  sig MethodSignature main demo.Main class demo.Main | void demo.Main.main(String[]) | Main.main(..) | public static void demo.Main.main(java.lang.String[])
  params [class [Ljava.lang.String;] throws [class java.lang.Throwable]
  returns void method public static void demo.Main.main(java.lang.String[]) throws java.lang.Throwable
static execution(public demo.Account(long))
  execution(demo.Account(long)) | execution(Account(..)) | execution(public demo.Account(long))
  id 3 kind constructor-execution at Account.java:9 within class demo.Account line 9
  sig ConstructorSignature <init> demo.Account class demo.Account | demo.Account(long) | Account(..) | public demo.Account(long)
  params [long] throws []
  constructor public demo.Account(long)
static staticinitialization(static demo.Account.<clinit>)
  staticinitialization(demo.Account.<clinit>) | staticinitialization(Account.<clinit>) | staticinitialization(static demo.Account.<clinit>)
  id 6 kind staticinitialization at unknown:-1 within class demo.Account line -1
  sig InitializerSignature <clinit> demo.Account class demo.Account | demo.Account.<clinit> | Account.<clinit> | static demo.Account.<clinit>
  params [] throws []
hidden 42
made 1 hasAspect true true
`

const atWantErr = `weft: warning: @AspectJ aspect demo.Missing: cannot load the class (java.lang.ClassNotFoundException: demo.Missing); its advice before does not run
weft: warning: @AspectJ aspect demo.Trace: no method nope(Lorg/aspectj/lang/JoinPoint;)V (java.lang.NoSuchMethodException: no such method: demo.Trace.nope(JoinPoint)void/invokeVirtual); its advice nope does not run
weft: warning: @AspectJ aspect demo.Trace: cannot adapt before(Lorg/aspectj/lang/JoinPoint;)V to the dispatcher's type (JoinPoint)void (java.lang.IllegalArgumentException: parameter 1 is a org.aspectj.lang.JoinPoint, not a org.aspectj.lang.JoinPoint$StaticPart); its advice before does not run
`

// The test program: an aspect as javac compiles @AspectJ aspects, the type
// its join points name, and a main that links and calls the dispatchers'
// call sites.
const atAccount = `package demo;

import java.io.IOException;
import java.util.Map;

public class Account {
    public int balance;

    public Account(long start) {
        balance = (int) start;
    }

    public int deposit(int amount) {
        return balance += amount;
    }

    @Override
    public String toString() {
        return "account " + balance;
    }

    public static Map.Entry<String, Integer> find(String[] keys, Map.Entry<String, Integer> e) throws IOException {
        return e;
    }
}
`

const atTrace = `package demo;

import java.util.Arrays;
import org.aspectj.lang.JoinPoint;
import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.lang.Signature;
import org.aspectj.lang.annotation.Around;
import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.annotation.Before;
import org.aspectj.lang.reflect.CatchClauseSignature;
import org.aspectj.lang.reflect.CodeSignature;
import org.aspectj.lang.reflect.ConstructorSignature;
import org.aspectj.lang.reflect.FieldSignature;
import org.aspectj.lang.reflect.InitializerSignature;
import org.aspectj.lang.reflect.MethodSignature;

@Aspect
public class Trace {
    static int made;
    static JoinPoint.StaticPart last;

    public Trace() {
        made++;
    }

    static String kind(Signature s) {
        String k = s instanceof MethodSignature ? "MethodSignature"
            : s instanceof ConstructorSignature ? "ConstructorSignature"
            : s instanceof FieldSignature ? "FieldSignature"
            : s instanceof CatchClauseSignature ? "CatchClauseSignature"
            : s instanceof InitializerSignature ? "InitializerSignature" : "Signature";
        return k + " " + s.getName() + " " + s.getDeclaringTypeName() + " " + s.getDeclaringType();
    }

    static void show(JoinPoint.StaticPart sp) {
        System.out.println("  " + sp + " | " + sp.toShortString() + " | " + sp.toLongString());
        System.out.println("  id " + sp.getId() + " kind " + sp.getKind() + " at " + sp.getSourceLocation()
            + " within " + sp.getSourceLocation().getWithinType() + " line " + sp.getSourceLocation().getLine());
        Signature s = sp.getSignature();
        System.out.println("  sig " + kind(s) + " | " + s + " | " + s.toShortString() + " | " + s.toLongString());
        if (s instanceof CodeSignature) {
            CodeSignature c = (CodeSignature) s;
            System.out.println("  params " + Arrays.toString(c.getParameterTypes()) + " throws " + Arrays.toString(c.getExceptionTypes()));
        }
        if (s instanceof MethodSignature) {
            MethodSignature m = (MethodSignature) s;
            System.out.println("  returns " + m.getReturnType() + " method " + m.getMethod());
        }
        if (s instanceof ConstructorSignature) {
            System.out.println("  constructor " + ((ConstructorSignature) s).getConstructor());
        }
        if (s instanceof FieldSignature) {
            FieldSignature f = (FieldSignature) s;
            System.out.println("  field " + f.getField() + " type " + f.getFieldType());
        }
        if (s instanceof CatchClauseSignature) {
            System.out.println("  caught " + ((CatchClauseSignature) s).getParameterType());
        }
    }

    @Before("call(* demo.Account.*(..))")
    public void before(JoinPoint jp) {
        System.out.println("before " + jp + " | " + jp.toShortString() + " | " + jp.toLongString());
        System.out.println("  this " + jp.getThis() + " target " + jp.getTarget() + " args " + Arrays.deepToString(jp.getArgs())
            + " kind " + jp.getKind() + " same part " + (jp.getStaticPart() == last) + " aspectOf " + (this == weft.at.Link.aspectOf(Trace.class)));
        show(jp.getStaticPart());
    }

    @Around("call(int demo.Account.deposit(int))")
    public Object around(ProceedingJoinPoint pjp) throws Throwable {
        Object[] args = pjp.getArgs();
        args[0] = -1; // a copy: proceed() still runs with the original
        Object a = pjp.proceed();
        Object b = pjp.proceed(new Object[] {5});
        Object c = pjp.proceed(new Object[] {new Account(1000), 7});
        String d;
        try {
            pjp.proceed(new Object[0]);
            d = "no error";
        } catch (IllegalArgumentException e) {
            d = e.getMessage();
        }
        System.out.println("around " + pjp + " proceed " + a + " " + b + " " + c + " | " + d);
        return (Integer) a + 100;
    }

    @Around("call(int demo.Account.deposit(int))")
    public Object aroundNull(ProceedingJoinPoint pjp) {
        return null;
    }

    public void formal(String s, int n, JoinPoint.StaticPart sp) {
        System.out.println("formal " + s + " " + n + " " + sp + " same part " + (sp == last));
    }

    public void enclosing(JoinPoint jp, JoinPoint.EnclosingStaticPart esp) {
        System.out.println("enclosing " + jp.toShortString() + " in " + esp.toShortString());
        show(jp.getStaticPart());
        show(esp);
    }

    public static void staticAdvice(JoinPoint.StaticPart sp) {
        System.out.println("static " + sp.toLongString());
        show(sp);
    }
}

/** A package-private aspect: linked through a private lookup. */
class Hidden {
    public long twice(long x) {
        return 2 * x;
    }
}
`

const atMain = `package demo;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.invoke.MutableCallSite;
import java.lang.reflect.Modifier;
import java.util.AbstractMap;
import java.util.Map;
import weft.at.AJ;
import weft.at.Link;
import weft.rt.Conversions;
import weft.rt.DIB;
import weft.rt.JoinPoint;
import weft.rt.JoinPointStaticPart;
import weft.rt.Proceed;

public class Main {
    /** The rest of a call of deposit, as weft's sister classes implement it. */
    static final class Deposit extends Proceed {
        final Account target;
        final int amount;

        Deposit(Account target, int amount) {
            super(DIB.token());
            this.target = target;
            this.amount = amount;
        }

        @Override
        protected Object run() {
            return target.deposit(amount);
        }

        @Override
        protected Object run(boolean newTarget, Object t, Object[] args) {
            if (args.length != 1) {
                throw Proceed.arity(1, args.length);
            }
            return (newTarget ? (Account) t : target).deposit(Conversions.intValue(args[0]));
        }
    }

    /** A dispatcher's call site, linked as its class initializer would. */
    static MethodHandle site(MethodType type, String aspect, String method, String desc, String roles, boolean isStatic) {
        MutableCallSite s = new MutableCallSite(java.lang.invoke.MethodHandles.empty(type));
        Link.link(s, aspect, method, desc, roles, isStatic);
        return s.dynamicInvoker();
    }

    public static void main(String[] a) throws Throwable {
        System.out.println("hasAspect " + Link.hasAspect(Trace.class) + " made " + Trace.made);
        JoinPointStaticPart call = JoinPointStaticPart.of(1, "method-call", "demo.Account", "deposit",
            "int demo.Account.deposit(int)", "demo.Main", "Main.java", 12, Modifier.PUBLIC);
        JoinPointStaticPart find = JoinPointStaticPart.of(2, "method-call", "demo.Account", "find",
            "java.util.Map$Entry demo.Account.find(java.lang.String[], java.util.Map$Entry)", "demo.Main", "Main.java", 13,
            Modifier.PUBLIC | Modifier.STATIC);
        JoinPointStaticPart init = JoinPointStaticPart.of(3, "constructor-execution", "demo.Account", "<init>",
            "void demo.Account.<init>(long)", "demo.Account", "Account.java", 9, Modifier.PUBLIC);
        JoinPointStaticPart get = JoinPointStaticPart.of(4, "field-get", "demo.Account", "balance",
            "int demo.Account.balance", "demo.Main", "Main.java", 14, Modifier.PUBLIC);
        JoinPointStaticPart handler = JoinPointStaticPart.of(5, "exception-handler", "demo.Main", "<catch>",
            "void demo.Main.<catch>(java.io.IOException)", "demo.Main", "Main.java", 15, 0);
        JoinPointStaticPart clinit = JoinPointStaticPart.of(6, "staticinitialization", "demo.Account", "<clinit>",
            "void demo.Account.<clinit>()", "demo.Account", "", 0, Modifier.STATIC);
        JoinPointStaticPart array = JoinPointStaticPart.of(7, "array-construction", "int[]", "<init>",
            "void int[].<init>(int)", "demo.Main", "Main.java", 16, Modifier.PUBLIC);
        JoinPointStaticPart missing = JoinPointStaticPart.of(8, "method-call", "demo.Gone", "m",
            "void demo.Gone.m(demo.Gone)", "demo.Main", "Main.java", 17, Modifier.PUBLIC);
        JoinPointStaticPart mainExec = JoinPointStaticPart.of(9, "method-execution", "demo.Main", "main",
            "void demo.Main.main(java.lang.String[])", "demo.Main", "Main.java", 50, Modifier.PUBLIC | Modifier.STATIC);

        Account acct = new Account(10);
        Main self = new Main() {
            @Override
            public String toString() { return "main"; }
        };
        Trace.last = AJ.sp(call);

        MethodType jpType = MethodType.methodType(void.class, JoinPoint.class);
        MethodHandle before = site(jpType, "demo.Trace", "before", "(Lorg/aspectj/lang/JoinPoint;)V", "J", false);
        System.out.println("hasAspect " + Link.hasAspect(Trace.class) + " made " + Trace.made);
        before.invokeExact(JoinPoint.make(call, self, acct, new Object[] {5}));
        Trace.last = null;
        before.invokeExact(JoinPoint.make(find, self, null, new Object[] {new String[0], new AbstractMap.SimpleEntry<>("k", 1)}));
        before.invokeExact(JoinPoint.make(get, null, acct, new Object[0]));
        before.invokeExact(JoinPoint.make(array, null, null, new Object[] {3}));
        before.invokeExact(JoinPoint.make(missing, null, null, new Object[] {null}));

        MethodType aroundType = MethodType.methodType(int.class, Proceed.class, JoinPoint.class);
        MethodHandle around = site(aroundType, "demo.Trace", "around", "(Lorg/aspectj/lang/ProceedingJoinPoint;)Ljava/lang/Object;", "P", false);
        int r = (int) around.invokeExact((Proceed) new Deposit(acct, 1), JoinPoint.make(call, self, acct, new Object[] {1}));
        System.out.println("around returned " + r + " balance " + acct.balance);
        MethodHandle aroundNull = site(aroundType, "demo.Trace", "aroundNull", "(Lorg/aspectj/lang/ProceedingJoinPoint;)Ljava/lang/Object;", "P", false);
        System.out.println("null around returned " + (int) aroundNull.invokeExact((Proceed) new Deposit(acct, 1), JoinPoint.make(call, self, acct, new Object[] {1})));

        MethodHandle formal = site(MethodType.methodType(void.class, Object.class, int.class, JoinPointStaticPart.class),
            "demo.Trace", "formal", "(Ljava/lang/String;ILorg/aspectj/lang/JoinPoint$StaticPart;)V", "ffS", false);
        Trace.last = AJ.sp(call);
        formal.invokeExact((Object) "hello", 42, call);

        MethodHandle enclosing = site(MethodType.methodType(void.class, JoinPoint.class, JoinPointStaticPart.class),
            "demo.Trace", "enclosing", "(Lorg/aspectj/lang/JoinPoint;Lorg/aspectj/lang/JoinPoint$EnclosingStaticPart;)V", "JE", false);
        enclosing.invokeExact(JoinPoint.make(handler, self, null, new Object[] {new java.io.IOException("x")}), mainExec);

        MethodHandle stat = site(MethodType.methodType(void.class, JoinPointStaticPart.class),
            "demo.Trace", "staticAdvice", "(Lorg/aspectj/lang/JoinPoint$StaticPart;)V", "S", true);
        stat.invokeExact(init);
        stat.invokeExact(clinit);

        MethodHandle hidden = site(MethodType.methodType(long.class, long.class), "demo.Hidden", "twice", "(J)J", "f", false);
        System.out.println("hidden " + (long) hidden.invokeExact(21L));

        // Failures: a warning each (once), and the site still does nothing.
        MethodHandle gone = site(jpType, "demo.Missing", "before", "(Lorg/aspectj/lang/JoinPoint;)V", "J", false);
        gone.invokeExact(JoinPoint.make(call, self, acct, new Object[] {5}));
        site(jpType, "demo.Missing", "before", "(Lorg/aspectj/lang/JoinPoint;)V", "J", false);
        site(jpType, "demo.Trace", "nope", "(Lorg/aspectj/lang/JoinPoint;)V", "J", false);
        site(jpType, "demo.Trace", "before", "(Lorg/aspectj/lang/JoinPoint;)V", "S", false);
        System.out.println("made " + Trace.made + " hasAspect " + Link.hasAspect(Trace.class) + " " + Link.hasAspect(Hidden.class));
    }
}
`
