package ai

import (
	"context"
	"math"
)

// Texel tuning, shared by the games whose evaluations are tuned (see
// TuneDiam and TunePisola): each sample is a vector of feature
// values, one weight each, and the game's result for the side the
// evaluation scores (1 a win, 1/2 a draw, 0 a loss); the weights minimise
// the mean squared error between the results and a logistic function of
// the evaluation.

// texelPredict is the expected result of an evaluation v at scale k.
func texelPredict(v, k float64) float64 { return 1 / (1 + math.Exp(-k*v)) }

// texelDot is the evaluation of features x with weights w.
func texelDot(x, w []float64) float64 {
	v := 0.0
	for i, f := range x {
		v += f * w[i]
	}
	return v
}

// texelError is the mean squared error of the predictions.
func texelError(feats [][]float64, results []float64, w []float64, k float64) float64 {
	e := 0.0
	for i := range feats {
		d := results[i] - texelPredict(texelDot(feats[i], w), k)
		e += d * d
	}
	return e / float64(max(1, len(feats)))
}

// fitScale returns the scale k that minimizes the error of weights w, by
// golden-section search.
func fitScale(feats [][]float64, results []float64, w []float64) float64 {
	lo, hi := 1e-5, 0.1
	const phi = 0.6180339887
	for range 60 {
		a, b := hi-phi*(hi-lo), lo+phi*(hi-lo)
		if texelError(feats, results, w, a) < texelError(feats, results, w, b) {
			hi = b
		} else {
			lo = a
		}
	}
	return (lo + hi) / 2
}

// texelFit minimizes the error over the weights by Adam with learning
// rate lr, from w0 at scale k, and returns the weights; it stops with
// ctx's error when ctx is done.
func texelFit(ctx context.Context, feats [][]float64, results []float64, w0 []float64, k float64, iters int, lr float64) ([]float64, error) {
	w := append([]float64(nil), w0...)
	moments, grad := make([]adamMoments, len(w)), make([]float64, len(w))
	n := float64(len(feats))
	for it := 1; it <= iters; it++ {
		if err := tuneErr(ctx); err != nil {
			return nil, err
		}
		clear(grad)
		for i, x := range feats {
			p := texelPredict(texelDot(x, w), k)
			d := (p - results[i]) * p * (1 - p) * k * 2 / n
			for j, f := range x {
				if f != 0 {
					grad[j] += d * f
				}
			}
		}
		c1, c2 := adamCorrections(it)
		for j := range w {
			moments[j].step(&w[j], grad[j], lr, c1, c2, 1e-12)
		}
	}
	return w, nil
}

// Adam's decay rates of the running averages of a weight's gradient and
// of its square.
const adamBeta1, adamBeta2 = 0.9, 0.999

// adamMoments are Adam's running averages of a weight's gradient and of
// its square.
type adamMoments struct{ m, v float64 }

// adamCorrections returns Adam's bias corrections at step t (from 1):
// 1-β₁ᵗ and 1-β₂ᵗ.
func adamCorrections(t int) (c1, c2 float64) {
	return 1 - math.Pow(adamBeta1, float64(t)), 1 - math.Pow(adamBeta2, float64(t))
}

// step moves *w by one step of Adam for gradient g at learning rate lr,
// with the bias corrections c1 and c2 of adamCorrections and eps guarding
// the division.
func (a *adamMoments) step(w *float64, g, lr, c1, c2, eps float64) {
	a.m = adamBeta1*a.m + (1-adamBeta1)*g
	a.v = adamBeta2*a.v + (1-adamBeta2)*g*g
	*w -= lr * (a.m / c1) / (math.Sqrt(a.v/c2) + eps)
}
