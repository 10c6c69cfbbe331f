import torch


def fit_pca(features, k):
    mean = features.mean(dim=0, keepdim=True)
    centered = features - mean
    _, s, vh = torch.linalg.svd(centered, full_matrices=False)
    components = vh[:k]
    scale = s[:k] / (features.shape[0] - 1) ** 0.5
    return mean, components, scale


def pca_transform(features, mean, components, scale=None):
    z = (features - mean) @ components
    if scale is not None:
        z = z / scale
    return z


def explained_variance_ratio(features, k):
    centered = features - features.mean(dim=0, keepdim=True)
    s = torch.linalg.svdvals(centered)
    var = s ** 2
    return var[:k].sum() / var.sum()


if __name__ == "__main__":
    torch.manual_seed(0)
    train_feats = torch.randn(1000, 512)
    test_feats = torch.randn(200, 512)
    mean, comps, scale = fit_pca(train_feats, k=64)
    print(f"explained variance: {explained_variance_ratio(train_feats, 64):.3f}")
    z_train = pca_transform(train_feats, mean, comps, scale)
    z_test = pca_transform(test_feats, mean, comps, scale)
    print(z_train.shape, z_test.shape)
