// Package engine implements the stax engine protocol: a line-based text
// protocol on standard input and output, in the spirit of UCI, UGI and GTP,
// that also covers games of more than two players such as 4-player Diam.
//
// A [Server] answers the protocol with a built-in player; a [Client] drives
// an external program that speaks it, with deadlines, so that a match runner
// can tell a slow, crashed or babbling engine from a playing one (see
// [Fault]). The protocol is documented in docs/protocol.md.
//
// A session looks like this (> sent to the engine, < received):
//
//	> stax
//	< id name stax
//	< id author the stax developers
//	< option name level type combo default medium var beginner ...
//	< staxok
//	> newgame pogo
//	> position startpos moves 1a1-a2
//	> go movetime 100
//	< info depth 1 score 3 nodes 16 nps 160000 time 0 pv 2b3-b1
//	< bestmove 2b3-b1
//	> quit
package engine
