import torch
import torch.nn.functional as F

from . import data, towers

VOCAB = 2000
MAX_LEN = 32
EMBED_DIM = 64


def clip_loss(img_emb, txt_emb, logit_scale):
    img_emb = F.normalize(img_emb, dim=-1)
    txt_emb = F.normalize(txt_emb, dim=-1)
    logits = logit_scale * img_emb @ txt_emb.t()
    labels = torch.arange(logits.size(0))
    return (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2


def main():
    torch.manual_seed(0)
    image_tower = towers.ImageTower(EMBED_DIM)
    text_tower = towers.TextTower(VOCAB, EMBED_DIM, max_len=MAX_LEN)
    captions = data.random_captions([5, 12, 20, 31, 9, 40], VOCAB)
    images, ids, mask = data.collate(data.random_images(len(captions), 64), captions, MAX_LEN)
    loss = clip_loss(image_tower(images), text_tower(ids, mask), logit_scale=14.3)
    loss.backward()
    print(tuple(ids.shape), loss.item())


if __name__ == "__main__":
    main()
