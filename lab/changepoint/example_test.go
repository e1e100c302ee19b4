package changepoint_test

import (
	"fmt"

	"github.com/pgrst-lab/pgrst-lab/lab/changepoint"
)

func ExampleDetect() {
	// Requests per second of one scenario, one value per commit: a
	// regression of about 4 % from the ninth commit (index 8) on.
	rps := []float64{
		100.2, 99.1, 100.8, 99.6, 100.4, 98.9, 100.1, 99.8,
		96.1, 95.7, 96.4, 95.5, 95.9, 96.6, 95.2, 96.0, 96.3, 95.8,
	}
	for _, p := range changepoint.Detect(rps, changepoint.Options{}) {
		fmt.Println(p)
		fmt.Printf("%.1f -> %.1f\n", p.Before, p.After)
	}
	// Output:
	// -3.9 % at 8 (p=2.7e-10, 95% CI -4.5..-3.4 %)
	// 99.9 -> 96.0
}
