// Package solve solves Pogo completely by retrograde analysis: it computes,
// for every arrangement of the 12 pieces with a side to move, whether that
// side wins, loses or draws with perfect play, and in how many plies (the
// winner hurrying, the loser holding out).
//
// Positions are indexed densely: the heights of the 9 stacks (a
// composition of 12 into 9 parts, C(20,8) = 125,970 of them) ranked by the
// combinatorial number system, times the colourings of the 12 pieces
// (C(12,6) = 924), ranked the same way. Black to move is stored as White
// to move with the colours swapped, and of the 8 images of a position under
// the symmetries of the square only the least is stored: 14,680,598
// classes stand for the 116,396,280 arrangements.
//
// The analysis starts from the positions whose side to move tops no stack
// (lost in 0) and spreads values back one distance at a time by
// generating un-moves: a predecessor of a lost position is won, and a
// predecessor of a won position has one unresolved move fewer, lost when
// none remain. The counters are scaled by orbit sizes so that folding the
// symmetries counts every move exactly once. Work is sharded by layout
// between workers; a worker posts each update to the worker that owns the
// position and they are applied after a barrier, so no memory is shared
// while written. Solve stops when its context is cancelled.
//
// The package holds the algorithm and the table file format (WriteTo,
// ReadTable, Save, Load); where tables are kept, when they are built and who
// hears about it is the caller's policy (the stax command hands package ai
// an ai.Tables).
package solve
