import torch
import torch.nn as nn
import torch.nn.functional as F

from gnn.graph.batching import collate, random_graph
from gnn.graph.conv import GraphConv, global_mean_pool

FEAT_DIM = 16
HIDDEN = 32
NUM_CLASSES = 3


class GraphClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = GraphConv(FEAT_DIM, HIDDEN)
        self.conv2 = GraphConv(HIDDEN, HIDDEN)
        self.head = nn.Linear(HIDDEN, NUM_CLASSES)

    def forward(self, x, edge_index, batch, num_graphs):
        x = self.conv2(self.conv1(x, edge_index), edge_index)
        return self.head(global_mean_pool(x, batch, num_graphs))


def main():
    torch.manual_seed(0)
    sizes = [(10, 30), (7, 20), (12, 40), (9, 25)]
    graphs = [random_graph(n, e, FEAT_DIM) for n, e in sizes]
    x, edge_index, batch = collate(graphs)
    labels = torch.randint(0, NUM_CLASSES, (len(graphs),))
    model = GraphClassifier()
    logits = model(x, edge_index, batch, len(graphs))
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    print(tuple(x.shape), tuple(edge_index.shape), loss.item())


if __name__ == "__main__":
    main()
