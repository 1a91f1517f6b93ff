# A fixed Jython workload (bench/suite.sh): dictionaries, lists, strings,
# classes and recursion; prints digests.
import sys
n = int(sys.argv[1])
words = ["w%d" % ((i * 7919) % 1013) for i in range(n)]
counts = {}
for w in words:
    counts[w] = counts.get(w, 0) + 1
print len(counts), sum(counts.values())
top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
print ",".join("%s=%d" % kv for kv in top)
class Point(object):
    def __init__(self, x, y):
        self.x, self.y = x, y
    def dist2(self, o):
        return (self.x - o.x) ** 2 + (self.y - o.y) ** 2
pts = [Point(i % 97, i % 89) for i in range(2000)]
print sum(pts[i].dist2(pts[i - 1]) for i in range(1, len(pts)))
def fib(k):
    return k if k < 2 else fib(k - 1) + fib(k - 2)
print fib(22)
print len("".join(str(i % 10) for i in range(50000)).replace("7", ""))
