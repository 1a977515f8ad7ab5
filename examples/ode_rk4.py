"""Fixed-step RK4 with fg.lax.fori_loop: solve a damped oscillator, differentiate the solution with
respect to its parameters, and fit the damping to an observed trajectory by Newton's method (jit,
grad and hessian through the loops).

    python examples/ode_rk4.py
"""

import time

import numpy as np

import funcgrad as fg
import funcgrad.numpy as fnp

STEPS, T = 200, 10.0
ITERS = 8


def field(state, params):
    x, v = state[0], state[1]
    return fnp.stack([v, -params["k"] * x - params["c"] * v])


def rk4(params, state0, steps=STEPS, t_end=T):
    """The state at t_end; one fori_loop with Python-int bounds (a scan: reverse-differentiable)."""
    h = t_end / steps

    def step(i, s):
        k1 = field(s, params)
        k2 = field(s + h / 2 * k1, params)
        k3 = field(s + h / 2 * k2, params)
        k4 = field(s + h * k3, params)
        return s + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)

    return fg.lax.fori_loop(0, steps, step, state0)


def exact(params, t):
    """x(t) for x(0) = 1, v(0) = 0 (underdamped)."""
    k, c = params["k"], params["c"]
    w = np.sqrt(k - c * c / 4)
    return np.exp(-c * t / 2) * (np.cos(w * t) + c / (2 * w) * np.sin(w * t))


def main():
    state0 = fnp.asarray([1.0, 0.0])
    true = {"k": fnp.asarray(4.0), "c": fnp.asarray(0.3)}
    x_end = float(rk4(true, state0)[0])
    print(f"x({T}) by RK4 with {STEPS} steps: {x_end:.8f}; exact: {exact({'k': 4.0, 'c': 0.3}, T):.8f}")

    # observations: the position at 10 times (a 5-step RK4 segment between consecutive ones)
    times = np.linspace(1.0, T, 10)
    observed = fnp.asarray([exact({"k": 4.0, "c": 0.3}, t) for t in times])

    def trajectory(params):
        def segment(state, dt):
            nxt = rk4(params, state, steps=5, t_end=1.0)
            return nxt, nxt[0]
        return fg.lax.scan(segment, state0, fnp.full(len(times), 1.0))[1]

    def loss(c):
        return fnp.mean((trajectory({"k": true["k"], "c": c}) - observed) ** 2)

    value_and_grad = fg.jit(fg.value_and_grad(loss))
    curvature = fg.jit(fg.hessian(loss))  # a second derivative through the nested loops
    c = fnp.asarray(1.0)
    start = time.perf_counter()
    for _ in range(ITERS):  # Newton's method on the damping (steps bounded: the loss is not convex)
        value, g = value_and_grad(c)
        c = c - fnp.clip(g / fnp.abs(curvature(c)), -0.25, 0.25)
    print(f"fitted damping c = {float(c):.5f} (true 0.3) after {ITERS} Newton steps, loss {float(loss(c)):.2e}, "
          f"{time.perf_counter() - start:.2f} s (traced once: {value_and_grad.trace_count}, {curvature.trace_count})")
    sens = fg.jacfwd(lambda p: rk4(p, state0)[0])(true)
    print(f"dx({T})/dk = {float(sens['k']):.5f}, dx({T})/dc = {float(sens['c']):.5f} (forward mode)")
    return float(c)


if __name__ == "__main__":
    main()
