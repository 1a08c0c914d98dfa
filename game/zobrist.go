package game

// KeySource produces the random 64-bit keys of a Zobrist hash with
// splitmix64: the same seed gives the same keys in every run, so hashes are
// stable across runs and machines.
type KeySource struct{ x uint64 }

// NewKeySource returns a key source starting from seed.
func NewKeySource(seed uint64) *KeySource { return &KeySource{x: seed} }

// Next returns the next key.
func (k *KeySource) Next() uint64 {
	k.x += 0x9e3779b97f4a7c15
	v := k.x
	v = (v ^ v>>30) * 0xbf58476d1ce4e5b9
	v = (v ^ v>>27) * 0x94d049bb133111eb
	return v ^ v>>31
}
