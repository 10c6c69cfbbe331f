import torch

SAMPLE_RATE = 16000
FRAME_LEN = 400


def frame_signal(signal, frame_len=FRAME_LEN):
    """Split [batch, samples] audio into non-overlapping frames [batch, n_frames, frame_len]."""
    n_frames = signal.shape[-1] // frame_len
    return signal[:, : n_frames * frame_len].reshape(signal.shape[0], n_frames, frame_len)


def frame_energy(signal):
    frames = frame_signal(signal)
    return frames.pow(2).mean(dim=-1).clamp_min(1e-10).log()


if __name__ == "__main__":
    batch = torch.randn(4, SAMPLE_RATE + 123)
    energy = frame_energy(batch)
    print(energy.shape)
