fun probeSq(i: Int): Int = i * i
fun main() {
    var s = 0
    for (i in 0 until 10) s += probeSq(i)
    println(s)
}
