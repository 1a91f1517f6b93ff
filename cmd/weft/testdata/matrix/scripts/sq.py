def probe_sq(x):
    return x * x
s = 0
for i in range(10):
    s += probe_sq(i)
print s
