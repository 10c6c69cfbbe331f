import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(7)
n_rows = 500
table = {
    "tenure": rng.integers(1, 72, n_rows).astype(np.float32),
    "monthly_fee": rng.normal(60.0, 15.0, n_rows).astype(np.float32),
    "support_calls": rng.poisson(2.0, n_rows).astype(np.float32),
    "churned": rng.integers(0, 2, n_rows).astype(np.float32),
}
feature_cols = ["tenure", "monthly_fee", "support_calls"]

features = np.stack([table[c] for c in feature_cols], axis=1)
features = (features - features.mean(axis=0)) / features.std(axis=0)
X = torch.from_numpy(table["churned"])
y = torch.from_numpy(table["churned"]).unsqueeze(1)

split = int(0.8 * n_rows)
X_train, y_train = X[:split], y[:split]

model = nn.Sequential(
    nn.Linear(len(feature_cols), 16),
    nn.ReLU(),
    nn.Linear(16, 1),
)
loss_fn = nn.BCEWithLogitsLoss()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)

logits = model(X_train)
loss = loss_fn(logits, y_train)
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
