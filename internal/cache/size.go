package cache

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// DefaultMax is the store's default size bound: 5 GB. A woven JDK of all
// modules takes about 300 MB (its runtime image), one of java.base alone
// 60 MB, a woven class path its size, the load-time answers and the
// application archive tens of megabytes: 5 GB keeps about fifteen sets of
// aspects on the whole JDK, each with its applications, while staying a
// small part of a developer machine's disk.
const DefaultMax int64 = 5 << 30

// MaxEnv names the environment variable of the bound.
const MaxEnv = "WEFT_CACHE_MAX"

// Max returns the bound flag says (a size ParseSize reads), else
// $WEFT_CACHE_MAX's, else DefaultMax.
func Max(flag string) (int64, error) {
	if flag != "" {
		n, err := ParseSize(flag)
		if err != nil {
			return 0, fmt.Errorf("--cache-max: %v", err)
		}
		return n, nil
	}
	if v := os.Getenv(MaxEnv); v != "" {
		n, err := ParseSize(v)
		if err != nil {
			return 0, fmt.Errorf("$%s: %v", MaxEnv, err)
		}
		return n, nil
	}
	return DefaultMax, nil
}

// ParseSize reads a size: a number of bytes, or a number (decimals
// allowed) followed by K, M, G or T (powers of 1024; a B or iB after it
// is accepted: 5G, 5GB, 5GiB, 1.5g and 512M are sizes).
func ParseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	mult := int64(1)
	if n := len(t); n > 0 {
		if i := strings.IndexByte("KMGT", t[n-1]); i >= 0 {
			mult = 1 << (10 * (i + 1))
			t = t[:n-1]
		}
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || f < 0 || t == "" {
		return 0, fmt.Errorf("%q is not a size (e.g. 5G, 500M, 1048576)", s)
	}
	return int64(f * float64(mult)), nil
}

// FormatSize writes n bytes the way ParseSize reads them, to 3 figures:
// 512B, 1.5K, 287M, 5.0G.
func FormatSize(n int64) string {
	if n < 1024 {
		return fmt.Sprintf("%dB", n)
	}
	f, unit := float64(n), ""
	for _, u := range []string{"K", "M", "G", "T"} {
		if f < 1024 {
			break
		}
		f, unit = f/1024, u
	}
	if f < 10 {
		return fmt.Sprintf("%.1f%s", f, unit)
	}
	return fmt.Sprintf("%.0f%s", f, unit)
}
