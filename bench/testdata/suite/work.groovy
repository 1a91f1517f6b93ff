// A fixed Groovy workload (bench/suite.sh): closures, collections, maps,
// string building and a small interpreter loop; prints digests.
def words = (0..<args[0].toInteger()).collect { i -> "w" + ((i * 7919) % 1013) }
def counts = [:].withDefault { 0 }
words.each { counts[it] += 1 }
println counts.size() + " " + counts.values().sum()
def top = counts.entrySet().sort { a, b -> b.value <=> a.value ?: a.key <=> b.key }.take(5)
println top.collect { "$it.key=$it.value" }.join(",")
long acc = 0
for (int r = 0; r < 20; r++) {
    acc += words.findAll { it.length() > 3 }.collect { it.hashCode() % 1000 }.inject(0L) { s, v -> s + v }
}
println acc
def sb = new StringBuilder()
(1..20000).each { sb << (it % 10) }
println sb.toString().count("7")
def fib
fib = { n -> n < 2 ? n : fib(n - 1) + fib(n - 2) }
println fib(22)
