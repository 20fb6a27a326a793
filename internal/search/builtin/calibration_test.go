package builtin

import (
	"math"
	"strings"
	"testing"
)

// TestCalibrationFile checks that the shipped calibration reads back to
// itself in the form eval-search --write gives it.
func TestCalibrationFile(t *testing.T) {
	c, err := decodeCalibration(calibrationFile)
	if err != nil {
		t.Fatal(err)
	}
	b, err := EncodeCalibration(c)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != string(calibrationFile) {
		t.Errorf("calibration.json is not in the written form:\n%s\nwant\n%s", calibrationFile, b)
	}
	if mustBuiltin(t).Calibration() != c {
		t.Errorf("the scorer does not use calibration.json")
	}
}

func TestCalibrationErrors(t *testing.T) {
	good, err := decodeCalibration(calibrationFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		file string
		says string
	}{
		{"not JSON", "bias", "invalid character"},
		{"unknown field", `{"bias": 1, "slope": 2}`, `unknown field "slope"`},
		{"no prior sd", `{"soft_floor": 0.2, "soft_full": 1}`, "prior_sd > 0"},
		{"soft bounds reversed", strings.Replace(string(calibrationFile), `"soft_floor": `, `"soft_floor": 1`, 1), "soft_floor < soft_full"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := decodeCalibration([]byte(tc.file)); err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("err = %v, want it to say %q", err, tc.says)
			}
		})
	}
	bad := good
	bad.Rank = math.Inf(1)
	if _, err := EncodeCalibration(bad); err == nil {
		t.Error("an infinite rank encodes")
	}
	if _, err := mustBuiltin(t).WithCalibration(bad); err == nil {
		t.Error("WithCalibration takes an infinite rank")
	}
	if c, err := mustBuiltin(t).WithCalibration(good); err != nil || c.Model() != mustBuiltin(t).Model() {
		t.Errorf("the shipped calibration gives another model: %v", err)
	}
}
