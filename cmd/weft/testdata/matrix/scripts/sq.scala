def probeSq(x: Int) = x * x
println((0 until 10).map(probeSq).sum)
