package account

import (
	"strings"
	"testing"
)

func TestPasswordHash(t *testing.T) {
	h := hashPassword("correct horse", DefaultPasswordParams)
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q; want the PHC string of argon2id with the default parameters", h)
	}
	if h2 := hashPassword("correct horse", DefaultPasswordParams); h2 == h {
		t.Fatal("two hashes of one password are equal: no salt?")
	}
	for _, tc := range []struct {
		password string
		want     bool
	}{{"correct horse", true}, {"correct horse ", false}, {"", false}, {"Correct horse", false}} {
		ok, err := checkPassword(tc.password, h)
		if err != nil || ok != tc.want {
			t.Errorf("checkPassword(%q) = %v, %v; want %v", tc.password, ok, err, tc.want)
		}
	}
	for _, bad := range []string{"", "plain", "$argon2i$v=19$m=1,t=1,p=1$c2FsdA$a2V5", "$argon2id$v=18$m=1,t=1,p=1$c2FsdA$a2V5", "$argon2id$v=19$m=x$c2FsdA$a2V5", "$argon2id$v=19$m=1,t=1,p=1$!!$a2V5"} {
		if ok, err := checkPassword("x", bad); ok || err == nil {
			t.Errorf("checkPassword of hash %q = %v, %v; want an error", bad, ok, err)
		}
	}
	// An account that never signs in with a password (a house bot) is
	// refused as a wrong password is, without an error to log.
	for _, password := range []string{"", "x", NoPassword()} {
		if ok, err := checkPassword(password, NoPassword()); ok || err != nil {
			t.Errorf("checkPassword(%q) of NoPassword = %v, %v; want false, no error", password, ok, err)
		}
	}
}
