def probe_sq(x) x * x end
s = 0
10.times { |i| s += probe_sq(i) }
puts s
