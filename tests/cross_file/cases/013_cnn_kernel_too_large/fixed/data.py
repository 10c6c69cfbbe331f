import torch


def random_batch(batch_size, image_size, num_classes=10):
    images = torch.rand(batch_size, 3, image_size, image_size)
    labels = torch.randint(0, num_classes, (batch_size,))
    return images, labels
