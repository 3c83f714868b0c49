# The files of a `lines.txz` archive (h200Batch.sh partlines / linepasses) by their base names, as
# text: keptLines.py and homeMap.py read the same archives.
import tarfile


def read_lines_archive(path):
    files = {}
    with tarfile.open(path) as archive:
        for member in archive.getmembers():
            if member.isfile():
                files[member.name.split("/")[-1]] = archive.extractfile(member).read().decode()
    return files
