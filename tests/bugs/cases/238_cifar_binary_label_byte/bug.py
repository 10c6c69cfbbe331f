import torch


def decode_cifar_batch(raw, num_images):
    rows = raw.view(num_images, 3073)
    labels = rows[:, 0].long()
    images = rows.reshape(num_images, 3, 32, 32)
    return images.float().div(255.0), labels


def normalize(images, mean=(0.4914, 0.4822, 0.4465), std=(0.247, 0.243, 0.261)):
    mean = torch.tensor(mean).view(1, 3, 1, 1)
    std = torch.tensor(std).view(1, 3, 1, 1)
    return (images - mean) / std


def random_flip(images):
    flip = torch.rand(images.shape[0]) < 0.5
    images[flip] = images[flip].flip(-1)
    return images


if __name__ == "__main__":
    num_images = 100
    raw = torch.randint(0, 256, (num_images * 3073,), dtype=torch.uint8)
    images, labels = decode_cifar_batch(raw, num_images)
    images = random_flip(normalize(images))
    print(images.shape, labels[:10])
