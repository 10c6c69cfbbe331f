import torch
import torch.nn.functional as F


def knn_predict(train_x, train_y, query_x, k=5, num_classes=10):
    train_x = F.normalize(train_x, dim=1)
    query_x = F.normalize(query_x, dim=1)
    sim = query_x @ train_x.t()
    topk_sim, idx = sim.topk(k, dim=1)
    votes = torch.zeros(query_x.size(0), num_classes)
    votes.scatter_add_(1, train_y[idx], topk_sim)
    return votes.argmax(dim=1)


def accuracy(pred, target):
    return (pred == target).float().mean().item()


if __name__ == "__main__":
    train_images = torch.rand(1000, 28, 28)
    train_labels = torch.randint(0, 10, (1000,))
    test_images = torch.rand(200, 28, 28)
    test_labels = torch.randint(0, 10, (200,))
    preds = knn_predict(train_images.flatten(1), train_labels, test_images, k=7)
    print(accuracy(preds, test_labels))
