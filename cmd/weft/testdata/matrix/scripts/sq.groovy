def probeSq(x) { x * x }
def s = 0
for (i in 0..<10) s += probeSq(i)
println s
