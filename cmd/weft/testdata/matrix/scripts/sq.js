function probeSq(x) { return x * x; }
var s = 0;
for (var i = 0; i < 10; i++) s += probeSq(i);
print(s);
