# The files of a `lines.txz` archive (h200Batch.sh partlines, linepasses, homeorders and the like)
# by their base names, as text, and what the walk's classes mean: keptLines.py, homeMap.py and
# homeOrders.py read the same archives.
import tarfile

# A line's class is its load's cycles in 32-cycle steps from 224 (l2Partitions.cu, LINE_CLASS_BASE):
# below NEAR_CLASSES a near hit, FAR_HIT a hit in the other partition, OWN_DRAM a line of the
# walking SM's own partition from DRAM (the fifth batch's walk).
NEAR_CLASSES = 5
FAR_HIT = range(5, 9)
OWN_DRAM = range(9, 12)


def read_lines_archive(path):
    files = {}
    with tarfile.open(path) as archive:
        for member in archive.getmembers():
            if member.isfile():
                files[member.name.split("/")[-1]] = archive.extractfile(member).read().decode()
    return files
