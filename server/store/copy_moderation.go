package store

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// copyModeration copies the blocks, restrictions and reports (not the
// password reset links, which are one-time like sessions, nor the removed
// chat lines, whose chat is gone with the old instances) from one store
// into another, then checks that the destination holds the same.
func copyModeration(ctx context.Context, from, to Moderation, n *Copied) error {
	blocks, err := from.Blocks(ctx)
	if err != nil {
		return err
	}
	for _, b := range blocks {
		if err := to.Block(ctx, b.UserID, b.Blocked); err != nil {
			return fmt.Errorf("block of %s by %s: %w", b.Blocked, b.UserID, err)
		}
	}
	n.Blocks = len(blocks)
	rs, err := from.Restrictions(ctx)
	if err != nil {
		return err
	}
	for _, r := range rs {
		if err := to.Restrict(ctx, r); err != nil {
			return fmt.Errorf("restriction of %s: %w", r.UserID, err)
		}
	}
	n.Restrictions = len(rs)
	reports, err := from.Reports(ctx, true, math.MaxInt32)
	if err != nil {
		return err
	}
	for _, r := range reports {
		err := to.AddReport(ctx, r)
		if errors.Is(err, ErrConflict) {
			continue // checked below
		}
		if err != nil {
			return err
		}
		if !r.Closed.IsZero() {
			if err := to.CloseReport(ctx, r.ID, r.Note, r.Closed); err != nil {
				return fmt.Errorf("report %s: %w", r.ID, err)
			}
		}
		n.Reports++
	}

	// The check: the destination holds the same, no more.
	toBlocks, err := to.Blocks(ctx)
	if err != nil {
		return err
	}
	if fmt.Sprint(toBlocks) != fmt.Sprint(blocks) {
		return fmt.Errorf("check: the destination holds the blocks %v; want %v", toBlocks, blocks)
	}
	toRs, err := to.Restrictions(ctx)
	if err != nil {
		return err
	}
	if fmt.Sprint(toRs) != fmt.Sprint(rs) {
		return fmt.Errorf("check: the destination holds the restrictions %v; want %v", toRs, rs)
	}
	toReports, err := to.Reports(ctx, true, math.MaxInt32)
	if err != nil {
		return err
	}
	if len(toReports) != len(reports) {
		return fmt.Errorf("check: the destination holds %d reports; want %d", len(toReports), len(reports))
	}
	for i, r := range reports {
		h := toReports[i]
		if h.ID != r.ID || h.Reporter != r.Reporter || h.Target != r.Target || h.Game != r.Game || h.Chat != r.Chat ||
			h.Reason != r.Reason || h.Note != r.Note || !h.Created.Equal(r.Created) || !h.Closed.Equal(r.Closed) {
			return fmt.Errorf("check: report %s: the destination holds %+v; want %+v", r.ID, *h, *r)
		}
	}
	return nil
}
