(defn probe-sq [x] (* x x))
(println (reduce + (map probe-sq (range 10))))
