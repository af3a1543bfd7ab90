"""`python -m nqueens_cp`: the `nqueens` command line."""

from nqueens_cp.entry import main

if __name__ == "__main__":
    main()
