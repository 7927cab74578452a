"""A small PyTorch training step with two ThreadBind operators in it: a fused
bias + GELU (tanh form) after the first linear layer and a row softmax at the
end, both from ops.mlir through threadbind.torch, with their gradients in
PyTorch. Run eagerly and under torch.compile, each checked against the same
step written with PyTorch's own gelu and softmax. Prints RESULT lines; run
it on the GPU machine."""

import argparse
import copy

import torch

import threadbind
import threadbind.torch


def make_ops(program):
    bias_gelu = threadbind.torch.custom_op(program, "bias_gelu",
                                           name="tbstep::bias_gelu",
                                           outputs={2: 0})
    softmax = threadbind.torch.custom_op(program, "softmax",
                                         name="tbstep::softmax",
                                         outputs={1: 0})

    def gelu_setup(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    def gelu_backward(ctx, grad):
        x, bias = ctx.saved_tensors
        v = x + bias
        k, c = 0.7978845608, 0.044715
        t = torch.tanh(k * (v + c * v ** 3))
        slope = 0.5 * (1 + t) + 0.5 * v * (1 - t * t) * k * (1 + 3 * c * v * v)
        grad_x = grad * slope
        return grad_x, grad_x.sum(0)

    def softmax_setup(ctx, inputs, output):
        ctx.save_for_backward(output)

    def softmax_backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return y * (grad - (grad * y).sum(-1, keepdim=True))

    torch.library.register_autograd(bias_gelu, gelu_backward,
                                    setup_context=gelu_setup)
    torch.library.register_autograd(softmax, softmax_backward,
                                    setup_context=softmax_setup)
    return bias_gelu, softmax


class Model(torch.nn.Module):
    def __init__(self, inputs, hidden, classes, ops):
        super().__init__()
        self.first = torch.nn.Linear(inputs, hidden, bias=False)
        self.bias = torch.nn.Parameter(torch.randn(hidden) * 0.1)
        self.second = torch.nn.Linear(hidden, classes)
        self.ops = ops

    def forward(self, x):
        h = self.first(x).contiguous()
        if self.ops:
            bias_gelu, softmax = self.ops
            a = bias_gelu(h, self.bias)
            return softmax(self.second(a).contiguous())
        a = torch.nn.functional.gelu(h + self.bias, approximate="tanh")
        return torch.softmax(self.second(a), dim=-1)


def step(model, x, target):
    """One step's loss and the gradients it leaves."""
    model.zero_grad()
    p = model(x)
    loss = -torch.log(p[torch.arange(len(target)), target] + 1e-9).mean()
    loss.backward()
    return loss.detach(), [q.grad.detach().clone()
                           for q in model.parameters()]


def compare(name, got, want):
    loss, grads = got
    want_loss, want_grads = want
    torch.testing.assert_close(loss, want_loss, rtol=1e-4, atol=1e-5)
    for g, w in zip(grads, want_grads):
        torch.testing.assert_close(g, w, rtol=1e-3, atol=1e-5)
    worst = max(float((g - w).abs().max()) for g, w in zip(grads, want_grads))
    print(f"RESULT training step {name}: loss {float(loss):.6f} "
          f"(PyTorch's {float(want_loss):.6f}), largest gradient "
          f"difference {worst:.2e}")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--program", required=True)
    parser.add_argument("--batch", type=int, default=256)
    args = parser.parse_args()
    program = threadbind.open_program(args.program)
    torch.manual_seed(0)
    reference = Model(512, 1024, 10, None).cuda()
    ours = copy.deepcopy(reference)
    ours.ops = make_ops(program)
    x = torch.randn(args.batch, 512, device="cuda")
    target = torch.randint(0, 10, (args.batch,), device="cuda")
    want = step(reference, x, target)
    compare("eager", step(ours, x, target), want)
    compiled = torch.compile(ours)
    compare("torch.compile", step(compiled, x, target), want)
    # A second batch through the compiled model: the ops trace once.
    x2 = torch.randn(args.batch, 512, device="cuda")
    compare("torch.compile, second batch", step(compiled, x2, target),
            step(reference, x2, target))


if __name__ == "__main__":
    main()
